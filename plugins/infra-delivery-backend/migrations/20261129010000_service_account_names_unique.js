// @ts-check

/**
 * A service account's name is unique in its organization: it is what people call a runner
 * (the Runners card names a runner by its account), and two "Runner" accounts could only be
 * told apart by id. Names repeated before this migration keep the oldest account's as it is;
 * the others get " (2)", " (3)", … until the name is free.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  /** @type {{ id: string, organization_id: string, name: string }[]} */
  const accounts = await knex('service_accounts')
    .select('id', 'organization_id', 'name')
    .orderBy([
      { column: 'organization_id' },
      { column: 'created_at' },
      { column: 'id' },
    ]);
  const taken = new Set(
    accounts.map(account => `${account.organization_id}\n${account.name}`),
  );
  const seen = new Set();
  for (const account of accounts) {
    const key = `${account.organization_id}\n${account.name}`;
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    let suffix = 2;
    let name = `${account.name} (${suffix})`;
    while (taken.has(`${account.organization_id}\n${name}`)) {
      suffix += 1;
      name = `${account.name} (${suffix})`;
    }
    taken.add(`${account.organization_id}\n${name}`);
    seen.add(`${account.organization_id}\n${name}`);
    await knex('service_accounts').where({ id: account.id }).update({ name });
  }
  await knex.schema.alterTable('service_accounts', table => {
    table.unique(['organization_id', 'name'], {
      indexName: 'service_accounts_organization_name_unique',
    });
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('service_accounts', table => {
    table.dropUnique(
      ['organization_id', 'name'],
      'service_accounts_organization_name_unique',
    );
  });
};
