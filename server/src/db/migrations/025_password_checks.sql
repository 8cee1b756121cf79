-- Account password checks (log-in, the OAuth sign-in form): one row per failed check per account
-- (10 in 15 minutes lock the account for 15 minutes), taken before the hash runs and given back
-- when the password was right. Keys are keyed hashes of the e-mail, never the e-mail.
create table password_checks (
  key        text not null,
  checked_at timestamptz(3) not null
);
create index password_checks_key_idx on password_checks (key, checked_at);
