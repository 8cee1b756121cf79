// A receiver for Hop's webhooks: `npm install standardwebhooks`, then
// HOP_WEBHOOK_SECRET=whsec_... node webhook-receiver.mjs
import { createServer } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

const webhook = new Webhook(process.env.HOP_WEBHOOK_SECRET);
const port = Number(process.env.PORT ?? 4000);

createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  let event;
  try {
    // The raw body, before any parsing: checks webhook-signature and webhook-timestamp.
    event = webhook.verify(body, req.headers);
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    return res.writeHead(400).end(err.message);
  }
  // webhook-id is the delivery id, the same on every attempt: deduplicate on it.
  console.log(event.type, req.headers['webhook-id'], event.test ? '(test)' : '');
  res.writeHead(204).end();
}).listen(port, () => console.log(`listening on ${port}`));
