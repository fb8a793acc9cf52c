const Database = require('better-sqlite3');
const db = new Database(process.argv[2], { readonly: true });
if (process.argv[3]) for (const p of process.argv[3].split(',')) console.log(p, db.pragma(p));
const org = db.prepare('select organization_id from pipelines limit 1').get().organization_id;
const page = db.prepare('select * from pipeline_runs where organization_id = ? order by id desc limit 51');
const sum = db.prepare('select sum(run_count) as c from pipelines where organization_id = ?');
function time(name, f, n = 3000) { for (let i=0;i<300;i++) f(); const t=process.hrtime.bigint(); for (let i=0;i<n;i++) f(); console.log(name, (Number(process.hrtime.bigint()-t)/n/1000).toFixed(1), 'µs'); }
for (let r=0;r<2;r++){ time('page *', () => page.all(org)); time('sum', () => sum.get(org)); }
const rows = page.all(org); console.log('bytes/row', JSON.stringify(rows).length/rows.length);
console.log(db.prepare("select name, sql from sqlite_master where tbl_name='pipelines' and type='index'").all());
console.log(db.prepare('explain query plan select sum(run_count) as c from pipelines where organization_id = ?').all(org));
