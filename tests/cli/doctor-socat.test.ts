/**
 * `doctor`'s socat row: the codex engine in the bubblewrap sandbox reaches
 * the model server through socat (session/codex-bridge.ts). Planted: socat
 * missing warns for a campaign on codex, and only there.
 */
import { describe, expect, it } from 'vitest';
import { socatCheck } from '../../harness/cli/doctor.js';

describe('doctor: socat', () => {
  it('warns when socat is missing and the campaign runs on codex, naming the package', () => {
    const check = socatCheck(false, '/usr/bin/socat', ['claude-code', 'codex']);
    expect(check.ok).toBe(false);
    expect(check.detail).toMatch(/^not found at \/usr\/bin\/socat: apt-get install socat/);
  });

  it('only notes a missing socat when nothing runs on codex', () => {
    expect(socatCheck(false, '/usr/bin/socat', []).ok).toBe(true);
    expect(socatCheck(false, '/usr/bin/socat', ['claude-code']).ok).toBe(true);
  });

  it('passes when socat is there', () => {
    expect(socatCheck(true, '/usr/bin/socat', ['codex'])).toMatchObject({
      name: 'socat',
      ok: true,
    });
  });
});
