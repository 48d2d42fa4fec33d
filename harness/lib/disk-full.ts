/**
 * A write that failed because the disk is full (ENOSPC) or the user's quota
 * is spent (EDQUOT): no bug of redgreen's, and no reason for a stack trace.
 * The command ends with one line naming what it could not write and the fix.
 */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);

export function isDiskFull(error: unknown): error is NodeJS.ErrnoException {
  return DISK_FULL.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** The one line for a disk-full error; `where` names the place when the error does not. */
export function diskFullLine(error: NodeJS.ErrnoException, where?: string): string {
  const place = error.path ?? where;
  const what = error.code === 'EDQUOT' ? 'the disk quota is spent' : 'no space left on device';
  return `redgreen: ${place === undefined ? 'a write failed' : `cannot write ${place}`}: ${what} (${error.code}); free space there (or write elsewhere), then run the command again\n`;
}
