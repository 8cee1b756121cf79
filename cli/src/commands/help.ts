import { Command, loadHelpClass } from '@oclif/core';

export default class Help extends Command {
  static summary = 'Show help for hop, a topic or a command';
  static description = 'The same as --help or -h after a command.';
  static examples = ['<%= config.bin %> help', '<%= config.bin %> help links create'];
  static strict = false;

  async run(): Promise<void> {
    const { argv } = await this.parse(Help);
    const HelpClass = await loadHelpClass(this.config);
    await new HelpClass(this.config, this.config.pjson.oclif.helpOptions ?? {}).showHelp(argv as string[]);
  }
}
