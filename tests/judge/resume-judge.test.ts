/**
 * A run judged as its reps land that stops early prints a resume command
 * that judges the reps still to come the same way (`--resume` repeats what
 * the directory recorded, and judging is not recorded there).
 */
import { describe, expect, it } from 'vitest';
import { judgeFlags, resumeCommand } from '../../harness/cli/resume-hint.js';

const argv = ['node', '/usr/bin/redgreen'];

describe('the resume command of a judged run', () => {
  it('keeps --judge, or --judge-model with its model', () => {
    expect(resumeCommand('/w/out', '/w', argv, judgeFlags({ judge: true }))).toBe(
      'redgreen run --resume out --judge',
    );
    expect(
      resumeCommand('/w/out', '/w', argv, judgeFlags({ judgeModel: 'scripted:judge-agree' })),
    ).toBe('redgreen run --resume out --judge-model scripted:judge-agree');
    expect(
      resumeCommand('/w/out', '/w', argv, judgeFlags({ judge: true, judgeModel: 'a b' })),
    ).toBe("redgreen run --resume out --judge-model 'a b'");
  });

  it('adds nothing to a run that was not judged', () => {
    expect(resumeCommand('/w/out', '/w', argv, judgeFlags({}))).toBe('redgreen run --resume out');
  });
});
