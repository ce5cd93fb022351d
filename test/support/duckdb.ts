// DuckDB (@duckdb/node-api, a devDependency) as the independent reader of tsdump's Parquet and NDJSON exports:
// an in-memory database per call, rows as plain JS values (BIGINT as bigint).
export type Row = Record<string, unknown>

/** null when DuckDB cannot be loaded here (the reason is printed; callers skip) */
export async function duckdb(): Promise<((sql: string) => Promise<Row[]>) | null> {
  try {
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const db = await DuckDBInstance.create(':memory:')
    const c = await db.connect()
    return async (sql) => (await c.runAndReadAll(sql)).getRowObjectsJS() as Row[]
  } catch (e) {
    console.log(`skipping: @duckdb/node-api cannot be loaded (${(e as Error).message})`)
    return null
  }
}
