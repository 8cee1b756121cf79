-- HOP_PLANS is a setting the fleet must share too (fleet-agreement.ts): a process in plans mode
-- beside a self-hosted one would limit and gate the same workspaces differently. A row written
-- before the column existed reads as HOP_PLANS' default.
alter table fleet_processes add column plan_mode text not null default 'self-hosted';
