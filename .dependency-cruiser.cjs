// The layer rule (docs/architecture.md): each folder of src/ may import only the layers listed for it (and
// itself), so imports point one way:
//   bytes -> decode -> analysis -> format -> commands -> cli
//   io (files, directories, sources) implements decode's interfaces; scan (the partition scan) reads through
//   io into analysis; commands and cli use both.
// Checked by `npm test` (test/layers.test.ts runs depcruise); tsPreCompilationDeps makes type-only imports
// count too. test/layers.test.ts also fails when a folder of src/ is not listed here (every folder has a place).
const allowed = {
  bytes: [],
  decode: ['bytes'],
  analysis: ['bytes', 'decode'],
  io: ['bytes', 'decode'],
  scan: ['bytes', 'decode', 'analysis', 'io'],
  format: ['bytes', 'decode', 'analysis'],
  commands: ['bytes', 'decode', 'analysis', 'io', 'scan', 'format'],
  cli: ['bytes', 'decode', 'analysis', 'io', 'scan', 'format', 'commands'],
}
const layers = Object.keys(allowed)
const forbidden = layers.map((l) => ({
  name: `${l}-imports-only-below`,
  comment: `src/${l} may import only ${allowed[l].length === 0 ? 'itself' : allowed[l].join(', ')}`,
  severity: 'error',
  from: { path: `^src/${l}/` },
  to: { path: '^src/', pathNot: [`^src/(${[l, ...allowed[l]].join('|')})/`] },
}))
forbidden.push({
  name: 'fs-only-in-io-and-cli',
  comment: 'every file-system access goes through src/io (sources, discovery, listings); cli/ writes the output descriptors',
  severity: 'error',
  from: { path: '^src/', pathNot: '^src/(io|cli)/' },
  to: { dependencyTypes: ['core'], path: '^(node:)?fs' },
})
forbidden.push({
  name: 'no-circular',
  severity: 'error',
  from: {},
  to: { circular: true },
})
module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    // node:fs is in the graph for the rule above; other modules outside src/ are not
    includeOnly: ['^src/', '^(node:)?fs(/promises)?$'],
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
