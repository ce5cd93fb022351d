// The layer rule (docs/architecture.md): bytes -> decode -> analysis -> format -> commands -> cli, imports
// pointing down only; io/ (files, directories) is used by commands only. Checked by `npm test`
// (test/layers.test.ts runs depcruise); tsPreCompilationDeps makes type-only imports count too.
const layers = ['bytes', 'decode', 'analysis', 'format', 'commands', 'cli']
const below = (l) => layers.slice(0, layers.indexOf(l) + 1)
const forbidden = layers.map((l) => ({
  name: `${l}-imports-only-below`,
  comment: `src/${l} may import only ${below(l).join(', ')}${l === 'commands' || l === 'cli' ? ', io' : ''}`,
  severity: 'error',
  from: { path: `^src/${l}/` },
  to: { path: '^src/', pathNot: [`^src/(${below(l).join('|')}${l === 'commands' || l === 'cli' ? '|io' : ''})/`] },
}))
forbidden.push({
  name: 'io-implements-decode-interfaces-only',
  comment: 'src/io reads files; it may use bytes and the decode interfaces it implements, nothing above',
  severity: 'error',
  from: { path: '^src/io/' },
  to: { path: '^src/', pathNot: ['^src/(io|bytes|decode)/'] },
})
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
