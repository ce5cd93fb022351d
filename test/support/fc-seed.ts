// Every fast-check run of this test file uses the run's seed (test/support/seeds.ts), unless a test names its own.
import fc from 'fast-check'

const seed = Number(process.env.TSDUMP_FC_SEED)
if (Number.isSafeInteger(seed)) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed })
