// DATABASE_URL with libpq's `host` parameter naming a Unix socket's directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postgresConnection } from './postgres-url.js';

test('a TCP URL is passed on as it is', () => {
  const url = 'postgres://hop:secret@db.example:6432/hop?sslmode=require';
  assert.deepEqual(postgresConnection(url), { url });
  const hosts = 'postgres://hop@db1.example:5432,db2.example:5432/hop?target_session_attrs=read-write';
  assert.deepEqual(postgresConnection(hosts), { url: hosts });
});

test('a host parameter naming a directory becomes the socket path, with or without a host before it', () => {
  assert.deepEqual(postgresConnection('postgres://postgres@localhost/hop?host=/var/run/postgresql'),
    { url: 'postgres://postgres@localhost/hop', path: '/var/run/postgresql/.s.PGSQL.5432' });
  assert.deepEqual(postgresConnection('postgresql:///hop?host=/tmp/'), { url: 'postgresql://localhost/hop', path: '/tmp/.s.PGSQL.5432' });
  assert.deepEqual(postgresConnection('postgres://u:p@/hop?host=%2Frun%2Fpg&application_name=x'),
    { url: 'postgres://u:p@localhost/hop?application_name=x', path: '/run/pg/.s.PGSQL.5432' });
  assert.deepEqual(postgresConnection('postgres://u@localhost:5433/hop?host=/run/pg'), { url: 'postgres://u@localhost:5433/hop', path: '/run/pg/.s.PGSQL.5433' });
  assert.deepEqual(postgresConnection('postgresql://u@:5433/hop?host=/run/pg'), { url: 'postgresql://u@localhost:5433/hop', path: '/run/pg/.s.PGSQL.5433' });
});
