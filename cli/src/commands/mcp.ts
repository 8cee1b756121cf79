import { Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { workspaceFlag } from '../flags.js';
import { linkIdFor } from '../link-ref.js';
import { createHopMcpServer } from '../mcp/server.js';
import { serveOnStdio } from '../mcp/stdio-session.js';

export default class Mcp extends BaseCommand<typeof Mcp> {
  static summary = 'Serve Hop to AI agents: a Model Context Protocol server on stdio';
  static description =
    'An MCP client (Claude Desktop, Claude Code, Cursor, VS Code) starts this command and talks to it over stdin and ' +
    'stdout. Its tools create, read, change and delete links, read analytics, make QR codes and resolve links, in one ' +
    'workspace with this CLI\'s credential and its scopes. Register it as the command `hop` with the arguments `mcp`; ' +
    'docs/agents.md shows each client\'s configuration.';
  static examples = [
    '<%= config.bin %> mcp',
    '<%= config.bin %> mcp --read-only --workspace acme',
    'claude mcp add hop -- <%= config.bin %> mcp --read-only',
  ];
  // Stdout is the protocol's: nothing else may be printed there.
  static enableJsonFlag = false;
  static flags = {
    workspace: workspaceFlag(),
    'read-only': Flags.boolean({ description: 'offer only the tools that change nothing (get, list, analytics, resolve)' }),
  };

  async run(): Promise<void> {
    // Resolved once, so a missing login or workspace fails at start, where the client shows it.
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const server = createHopMcpServer({
      version: this.config.version,
      readOnly: this.flags['read-only'],
      context: {
        workspaceId,
        api: () => this.currentApi(),
        linkId: async (ref) => linkIdFor(await this.currentApi(), workspaceId, ref),
      },
    });
    await serveOnStdio(server);
  }
}
