import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { packageRoot } from '../lib/package-root.js';

/**
 * The Claude Code binary that `@anthropic-ai/claude-agent-sdk` ships in its
 * platform package (`@anthropic-ai/claude-agent-sdk-<platform>-<arch>`), or
 * undefined when this machine has none installed.
 */
export function locateClaudeCodeBinary(): string | undefined {
  const require = createRequire(import.meta.url);
  const platformPackages = [
    `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`,
    `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}-musl`,
  ];
  for (const name of platformPackages) {
    try {
      const manifest = require.resolve(`${name}/package.json`);
      const binary = path.join(
        path.dirname(manifest),
        process.platform === 'win32' ? 'claude.exe' : 'claude',
      );
      if (existsSync(binary)) return binary;
    } catch {
      // not installed for this platform; try the next
    }
  }
  return undefined;
}

/**
 * An engine binary as doctor shows it: relative to the package when it is
 * one of the package's own (`node_modules/…`), else as found.
 */
export function binaryLabel(binary: string, root: string = packageRoot()): string {
  const relative = path.relative(root, binary);
  return relative.startsWith('..') || path.isAbsolute(relative) ? binary : relative;
}
