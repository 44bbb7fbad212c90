// Tokenize standard input with grammar/dealer.tmLanguage.json, as VS Code
// does (vscode-textmate on the oniguruma regex engine), and print each
// token as JSON: [line, text, scopes]. For tests/editor/test_grammar.py.
"use strict";
const fs = require("fs");
const path = require("path");
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const grammarPath = process.argv[2];
const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm"));
const onigLib = oniguruma.loadWASM(wasm.buffer).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (text) => new oniguruma.OnigString(text),
}));
const registry = new textmate.Registry({
  onigLib,
  loadGrammar: async (scopeName) => scopeName === "source.dealer"
    ? textmate.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath)
    : null,
});

registry.loadGrammar("source.dealer").then((grammar) => {
  const lines = fs.readFileSync(0, "utf8").split("\n");
  const tokens = [];
  let stack = textmate.INITIAL;
  lines.forEach((line, number) => {
    const result = grammar.tokenizeLine(line, stack);
    for (const token of result.tokens) {
      tokens.push([number, line.substring(token.startIndex, token.endIndex), token.scopes]);
    }
    stack = result.ruleStack;
  });
  process.stdout.write(JSON.stringify(tokens));
});
