import pg from 'pg';
const c = new pg.Client('postgres://postgres@127.0.0.1:5432/postgres'); await c.connect();
const name = process.argv[2]; const drop = process.argv[3] === 'drop';
await c.query(drop ? `DROP DATABASE IF EXISTS ${name} WITH (FORCE)` : `CREATE DATABASE ${name}`); await c.end();
