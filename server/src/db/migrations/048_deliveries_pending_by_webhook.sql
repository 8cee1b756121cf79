-- The dispatcher's claim walks the webhooks that have due deliveries and takes each one's oldest
-- (dispatcher.ts): this index lets it skip from one webhook to the next in one probe each, however
-- deep a flooded webhook's backlog is.
create index if not exists deliveries_pending_by_webhook_idx on deliveries (webhook_id, next_attempt_at) where status = 'pending';
