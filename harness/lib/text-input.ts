import { open, realpath, stat } from 'node:fs/promises';
import { type InputError, inputError } from './input-error.js';
import { err, ok, type Result } from './result.js';

/** Where the kernel's pseudo files live. */
const PSEUDO_FILE_SYSTEMS = ['/proc', '/sys'];

/**
 * Read a text input the user names: a file, or `-` for stdin. Only a regular
 * file or an anonymous pipe (`<(cmd)`) is read (a named pipe on disk is refused: with no
 * writer it would block forever) (a device such as /dev/zero never ends; a kernel
 * pseudo-file under /proc or /sys is no one's text), at most `maxBytes`; the
 * text must be UTF-8 without NUL bytes and not blank. Each failure is an
 * InputError naming the input.
 */
export async function readTextInput(
  source: string,
  options: { readonly maxBytes: number; readonly what: string; readonly fix: string },
): Promise<Result<string, InputError>> {
  const name = source === '-' ? 'stdin (-)' : source;
  const bad = (problem: string): Result<string, InputError> =>
    err(inputError(name, problem, options.fix));
  let bytes: Buffer;
  if (source === '-') {
    const read = await readCapped(process.stdin, options.maxBytes);
    if (read === 'too-large') return bad(`is larger than ${mib(options.maxBytes)}`);
    bytes = read;
  } else {
    // The kernel's pseudo files (/proc, /sys) look like regular files but are no one's text.
    const real = await realpath(source).catch(() => source);
    if (PSEUDO_FILE_SYSTEMS.some((root) => real === root || real.startsWith(`${root}/`))) {
      return bad(`is a kernel pseudo-file (${real}), so it is not ${options.what}`);
    }
    // A named pipe on disk (a FIFO planted in a rep directory, say) may have no writer, and
    // opening it would block forever; an anonymous pipe (`<(cmd)`, /dev/fd/N) has one.
    const named = await realpath(source).then(
      () => true,
      () => false,
    );
    if (named && (await stat(source).catch(() => undefined))?.isFIFO() === true) {
      return bad(
        `is a named pipe (FIFO), so it is not ${options.what}; pipe the text to stdin with - instead`,
      );
    }
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(source, 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return bad(
        code === 'ENOENT'
          ? 'no such file'
          : code === 'EISDIR'
            ? 'is a directory'
            : `cannot read (${code ?? String(error)})`,
      );
    }
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) return bad('is a directory');
      if (!stats.isFile() && !stats.isFIFO()) {
        return bad(`is not a regular file (a device or socket), so it is not ${options.what}`);
      }
      if (stats.isFile() && stats.size > options.maxBytes) {
        return bad(`is larger than ${mib(options.maxBytes)} (${stats.size} bytes)`);
      }
      const read = await readCapped(
        handle.createReadStream({ autoClose: false }),
        options.maxBytes,
      );
      if (read === 'too-large') return bad(`is larger than ${mib(options.maxBytes)}`);
      bytes = read;
    } catch (error) {
      return bad(`cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    } finally {
      await handle.close();
    }
  }
  if (bytes.includes(0))
    return bad(`is not text (it holds NUL bytes), so it is not ${options.what}`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bad(`is not text (not valid UTF-8), so it is not ${options.what}`);
  }
  if (text.trim() === '') return bad('is empty');
  return ok(text);
}

function mib(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

async function readCapped(
  stream: NodeJS.ReadableStream,
  maxBytes: number,
): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxBytes) return 'too-large';
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
