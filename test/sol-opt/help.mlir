// The driver registers the sol dialect and passes beside upstream's.
// RUN: sol-opt --help | FileCheck %s
// CHECK: Available Dialects: {{.*}}linalg{{.*}}nvgpu, nvvm{{.*}}, sol,
// CHECK-DAG: --sol-attach-target
// CHECK-DAG: --sol-cost-model
// CHECK-DAG: --gpu-lower-to-nvvm-pipeline
