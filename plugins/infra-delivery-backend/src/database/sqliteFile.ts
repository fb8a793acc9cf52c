import { Knex } from 'knex';

/** The file of a SQLite connection's main database; undefined when it is in memory. */
export async function sqliteFileOf(knex: Knex): Promise<string | undefined> {
  const [{ file }] = await knex.raw<{ file: string }[]>(
    "SELECT file FROM pragma_database_list WHERE name = 'main'",
  );
  return file || undefined;
}
