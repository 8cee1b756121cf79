import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../errors.js';
import { HOP_TOOLS, type HopTool, type ToolContext } from './tools.js';

export interface HopMcpOptions {
  version: string;
  /** Offer only the tools that change nothing. */
  readOnly: boolean;
  context: ToolContext;
}

const INSTRUCTIONS =
  'Hop is a link shortener. These tools act in one workspace with the credential of the `hop` CLI, ' +
  'and its scopes apply: a refusal comes back as a tool error naming the scope. A link is named by ' +
  'its id (lnk_...) or its slug.';

/** The tools a server started with these options offers. */
export function offeredTools(readOnly: boolean): readonly HopTool[] {
  return HOP_TOOLS.filter((t) => !readOnly || t.annotations.readOnlyHint);
}

/** An MCP server offering Hop's tools; the caller connects it to a transport. */
export function createHopMcpServer({ version, readOnly, context }: HopMcpOptions): McpServer {
  const server = new McpServer({ name: 'hop', title: 'Hop', version }, { instructions: INSTRUCTIONS });
  for (const t of offeredTools(readOnly)) {
    server.registerTool(
      t.name,
      { title: t.title, description: t.description, inputSchema: t.input, outputSchema: t.output, annotations: { title: t.title, ...t.annotations } },
      async (input: unknown): Promise<CallToolResult> => {
        try {
          // Parsing drops fields a newer server may add, which the declared output schema does not allow.
          const data = t.output.parse(await t.run(input as never, context));
          return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data };
        } catch (err) {
          // An API refusal (a missing scope, a bad field, a link not found) is the agent's to read and act on.
          return { isError: true, content: [{ type: 'text', text: describeError(err) }] };
        }
      },
    );
  }
  return server;
}
