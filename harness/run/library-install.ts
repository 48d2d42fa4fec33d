/**
 * Install a library arm's skills library for one rep, the way a user's
 * engine finds it: as a Claude Code plugin directory (the Agent SDK's local
 * `plugins` option), under `<rep's private dir>/plugins/<plugin name>`, a
 * path that names no arm. Measured on Claude Code 2.1.332 (README "Skills
 * libraries"): a plugin's skills are listed to the model as
 * `<plugin>:<name>` with their descriptions and loaded through the Skill
 * tool, with no setting source at all, so the fixture's `.claude/` is never
 * read; project or user skills would need the engine to read settings.
 *
 * The plugin's SessionStart command hooks (matcher `startup`, or none) run
 * here, before the session, through the same confinement as model commands
 * (sandbox.ts runConfined: the fixture read-write, the plugin read-only, a
 * scrubbed environment plus `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PROJECT_DIR`),
 * never inside the engine, which would run them with its own environment
 * (the API key among it: measured). The installed copy's hooks.json is
 * replaced by one that replays each hook's recorded output (`cat`), so the
 * engine reads it exactly as it would the hook's (it runs a hook's command
 * through the session's confining shell prefix, so the replayed output sits
 * in the read-only plugin directory); the messages backend reads
 * the same outputs (installed-library.ts). Other hook events are not run.
 */
import {
  chmod,
  copyFile,
  cp,
  link,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../lib/hash.js';
import { openToReaders } from '../lib/remove-tree.js';
import type { LibraryContents } from '../library/library-source.js';
import type { RepMeta } from '../results/rep-meta.js';
import { runConfined, type Sandbox, whileHandedOver } from '../sandbox/sandbox.js';
import type { InstalledLibrary, SessionStartOutput } from '../session/installed-library.js';
import { shellQuote } from '../session/shell-prefix.js';

/** What meta.json records of the installed library. */
export type LibraryInstallRecord = NonNullable<RepMeta['library']>;

/** How long a SessionStart hook may run (the engine's default hook timeout): then it is killed, exit unknown. */
export const HOOK_TIMEOUT_MS = 60_000;
const HOOK_OUTPUT_MAX_BYTES = 1_000_000;

/** Whether a SessionStart matcher fires on a fresh session (`startup`). */
function firesOnStartup(matcher: string | undefined): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test('startup');
  } catch {
    return matcher.split('|').includes('startup');
  }
}

/** A library placed in a rep's private directory, its hooks not run yet. */
export interface PlacedLibrary {
  readonly root: string;
  readonly contents: LibraryContents;
}

/**
 * Link (or, across file systems, copy) every file of a composed library into
 * `to`: the files are read-only and nothing here writes into one (a file
 * redgreen replaces is unlinked first), so a hard link is as good as a copy
 * and costs a fraction of it.
 */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isSymbolicLink()) await cp(source, target, { verbatimSymlinks: true });
    else if (entry.isFile()) {
      try {
        await link(source, target);
      } catch {
        await copyFile(source, target);
        await chmod(target, (await stat(source)).mode & 0o777);
      }
    }
  }
}

/** Put the library where the rep's engine loads it: `<private dir>/plugins/<plugin name>`, with a manifest. */
export async function placeLibrary(options: {
  readonly from: string;
  readonly contents: LibraryContents;
  readonly privateDir: string;
}): Promise<PlacedLibrary> {
  const { contents } = options;
  const root = path.join(options.privateDir, 'plugins', contents.pluginName);
  await linkTree(options.from, root);
  const manifestFile = path.join(root, '.claude-plugin', 'plugin.json');
  if (!contents.hasManifest) {
    await mkdir(path.dirname(manifestFile), { recursive: true });
    await writeFile(manifestFile, `${JSON.stringify({ name: contents.pluginName }, null, 2)}\n`);
  } else {
    // Hooks declared in the manifest are replaced with the replay below, like hooks.json.
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, unknown>;
    if ('hooks' in manifest) {
      const { hooks: _replaced, ...rest } = manifest;
      await rm(manifestFile, { force: true });
      await writeFile(manifestFile, `${JSON.stringify(rest, null, 2)}\n`);
    }
  }
  return { root, contents };
}

/** Run a placed library's SessionStart hooks confined, install their replay, and describe the result. */
export async function startLibrary(
  placed: PlacedLibrary,
  options: {
    readonly privateDir: string;
    readonly fixtureDir: string;
    readonly sandbox: Sandbox;
    /** Default HOOK_TIMEOUT_MS. */
    readonly hookTimeoutMs?: number | undefined;
  },
): Promise<{ readonly library: InstalledLibrary; readonly record: LibraryInstallRecord }> {
  const { root, contents } = placed;
  const outputs: SessionStartOutput[] = [];
  const records: LibraryInstallRecord['hooks'] = [];
  const replay: { type: 'command'; command: string }[] = [];
  // Beside the replaying hooks.json: the engine runs hook commands through the session's confining
  // shell prefix (measured), which mounts the plugin read-only and nothing else of the rep's.
  const outputDir = path.join(root, 'hooks');
  await mkdir(outputDir, { recursive: true });
  // The sandbox may run as another user (redgreen started by root): the plugin must be readable
  // to it, and the fixture its hooks may write in is its own while they run.
  await openToReaders(root);
  for (const [index, hook] of contents.hooks.entries()) {
    if (!firesOnStartup(hook.matcher)) continue;
    const result = await whileHandedOver(options.sandbox, [options.fixtureDir], () =>
      runConfined(options.sandbox, {
        // Standard output is what the engine reads of a hook; its diagnostics are dropped.
        argv: ['/bin/bash', '-c', `{ ${hook.command}\n} 2>/dev/null`],
        fixtureDir: options.fixtureDir,
        readOnlyDirs: [root],
        fallbackHome: path.join(options.privateDir, 'hook-home'),
        timeoutMs: options.hookTimeoutMs ?? HOOK_TIMEOUT_MS,
        maxOutputBytes: HOOK_OUTPUT_MAX_BYTES,
        env: { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PROJECT_DIR: options.fixtureDir },
      }),
    );
    const stdout = result.output;
    outputs.push({ command: hook.command, exitCode: result.exitCode, stdout });
    records.push({
      event: 'SessionStart',
      command: hook.command,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      stdoutBytes: Buffer.byteLength(stdout),
      stdoutSha256: sha256Hex(stdout),
    });
    const file = path.join(outputDir, `.session-start-${index + 1}.out`);
    await writeFile(file, stdout);
    replay.push({
      type: 'command',
      command: `cat ${shellQuote(file)}; exit ${result.exitCode ?? 1}`,
    });
  }
  const hooksFile = path.join(root, 'hooks', 'hooks.json');
  await rm(hooksFile, { force: true });
  if (replay.length > 0) {
    await mkdir(path.dirname(hooksFile), { recursive: true });
    await writeFile(
      hooksFile,
      `${JSON.stringify({ hooks: { SessionStart: [{ matcher: 'startup', hooks: replay }] } }, null, 2)}\n`,
    );
  }
  await chmod(root, 0o555);
  return {
    library: {
      pluginName: contents.pluginName,
      root,
      skills: contents.skills.map((skill) => ({
        name: `${contents.pluginName}:${skill.name}`,
        description: skill.description,
        dir: path.join(root, 'skills', skill.dir),
        body: skill.body,
      })),
      sessionStart: outputs,
    },
    record: {
      pluginName: contents.pluginName,
      skills: contents.skills.map((skill) => ({ name: skill.name, sha256: skill.sha256 })),
      hooks: records,
      hooksNotRun: [...contents.hooksNotRun],
    },
  };
}

/** Place a library and start it: what a rep does, in one call (tests and tools). */
export async function installLibrary(options: {
  readonly from: string;
  readonly contents: LibraryContents;
  readonly privateDir: string;
  readonly fixtureDir: string;
  readonly sandbox: Sandbox;
  readonly hookTimeoutMs?: number | undefined;
}): Promise<{ readonly library: InstalledLibrary; readonly record: LibraryInstallRecord }> {
  return startLibrary(await placeLibrary(options), options);
}
