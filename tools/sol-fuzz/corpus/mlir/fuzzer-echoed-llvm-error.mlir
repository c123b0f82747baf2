// sol-fuzz corpus: not a compiler bug but one of the fuzzer's own (2026-12-03): a parse error whose diagnostic echoes the offending source line, which quotes a fatal error's text; the classifier took the echo for an LLVM ERROR and failed the smoke run. A fatal error is only one that starts a line of the output.
/ LLVM ERROR: SmallVector unable to grow, quoted by the parser's diagnostic; Assertion `quoted' failed.
module attributes {sol.target = #sol.target<"h200">} {
}
