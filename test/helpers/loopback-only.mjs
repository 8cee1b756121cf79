// Loaded with --import into a third-party tool a test runs (Redocly's CLI): any TCP connection to
// a host other than this machine's loopback fails at once, before a name is looked up, so a tool
// that would phone home (an update check, telemetry) cannot send a packet off the machine.
import net from 'node:net';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guarded(...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = first !== null && typeof first === 'object' ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (!options.path) {
    const host = options.host ?? 'localhost';
    if (!LOOPBACK.test(host)) throw new Error(`refused: ${host} is not a loopback address (test/helpers/loopback-only.mjs)`);
  }
  return connect.apply(this, args);
};
