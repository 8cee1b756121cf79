-- Account password checks (log-in, the OAuth sign-in form): one row per check per client address
-- (`addr:` keys, at most 30 a minute) and one per failed check per account (`acct:` keys, 10 in
-- 15 minutes lock the account for 15 minutes). Keys are keyed hashes, never an address or e-mail.
create table password_checks (
  key        text not null,
  checked_at timestamptz(3) not null
);
create index password_checks_key_idx on password_checks (key, checked_at);
