// The seeds of the unit suite's random tests, chosen once per run (vitest globalSetup, before any worker starts,
// so every worker inherits them) and printed, so that a failing run is replayed with the same values:
// TSDUMP_FC_SEED for fast-check (every property test and fc.sample; test/support/fc-seed.ts applies it) and
// FUZZ_SEED for the in-process fuzz loop (test/hostile/fuzz.test.ts). .ci/run pins both, as it pins the broker seeds.
export default function setup(): void {
  for (const name of ['TSDUMP_FC_SEED', 'FUZZ_SEED']) {
    const given = process.env[name]
    if (given === undefined || given === '') process.env[name] = String(Math.floor(Math.random() * 2 ** 31))
    console.log(
      `${name}=${process.env[name]!}${given === undefined || given === '' ? ' (drawn for this run; set it to replay)' : ' (given)'}`,
    )
  }
}
