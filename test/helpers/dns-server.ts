// A real DNS server on loopback (dns2, over UDP: the answers are small) answering TXT records the test
// controls, so domain verification goes through node's resolver exactly as in production.
import dns2 from 'dns2';

const { Packet } = dns2;

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as HOP_DNS_SERVERS takes it. */
  address: string;
  /** Sets the TXT values at a name (replacing any); `[]` removes the record. */
  setTxt(name: string, values: string[]): void;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, string[]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      for (const q of request.questions) {
        const values = q.type === Packet.TYPE.TXT ? records.get(q.name.toLowerCase()) : undefined;
        for (const data of values ?? []) response.answers.push({ name: q.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data });
      }
      send(response);
    },
  });
  const listening = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    address: `127.0.0.1:${listening.udp!.port}`,
    setTxt: (name, values) => void (values.length ? records.set(name.toLowerCase(), values) : records.delete(name.toLowerCase())),
    close: () => server.close(),
  };
}
