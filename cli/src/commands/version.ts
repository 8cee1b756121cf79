import { Command } from '@oclif/core';

export interface VersionResult {
  version: string;
  node: string;
  platform: string;
}

export default class Version extends Command {
  static summary = 'Show the version of hop (the same as --version)';
  static examples = ['<%= config.bin %> version', '<%= config.bin %> version --json'];
  static enableJsonFlag = true;

  async run(): Promise<VersionResult> {
    await this.parse(Version);
    const result = { version: this.config.version, node: process.version, platform: `${process.platform}-${process.arch}` };
    if (!this.jsonEnabled()) this.log(this.config.userAgent);
    return result;
  }
}
