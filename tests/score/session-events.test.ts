/**
 * The event list's parts, read from tool inputs only: which files a Bash
 * command writes (redirections, tee, sed -i, cp/mv onto a path,
 * here-documents, cd), which skills a call invokes and in which form, and
 * where each event stands.
 */
import { describe, expect, it } from 'vitest';
import { withoutHeredocBodies } from '../../harness/score/extractors/language/shell-words.js';
import { shellWrites } from '../../harness/score/extractors/language/shell-writes.js';
import { repositoryPath, sessionEvents } from '../../harness/score/session-events.js';
import { sameSkill, skillInvocations } from '../../harness/score/skill-invocations.js';

const paths = (command: string): string[] =>
  shellWrites(command).map((write) => `${write.part}:${write.how}:${write.path}`);

describe('shell writes', () => {
  it('reads redirections, tee, in-place edits, copies, moves, touch and dd', () => {
    expect(paths('echo hi > a.txt')).toEqual(['0:>:a.txt']);
    expect(paths('echo hi >> log/b.txt 2>&1')).toEqual(['0:>:log/b.txt']);
    expect(paths('printf x >c.txt')).toEqual(['0:>:c.txt']);
    expect(paths('npm test | tee out.log')).toEqual(['1:tee:out.log']);
    expect(paths("sed -i 's/a/b/' src/x.js")).toEqual(['0:sed -i:src/x.js']);
    expect(paths("sed -i.bak -e 's/a/b/' src/x.js")).toEqual(['0:sed -i:src/x.js']);
    expect(paths('perl -pi -e "s/a/b/" lib/y.pl')).toEqual(['0:perl -i:lib/y.pl']);
    expect(paths('cp tmp/a.js src/a.js && mv x y/z.js')).toEqual(['0:cp:src/a.js', '1:mv:y/z.js']);
    expect(paths('cp -t dest a b')).toEqual(['0:cp:dest/a', '0:cp:dest/b']);
    expect(paths('touch src/new.js; truncate -s 0 big.log')).toEqual([
      '0:touch:src/new.js',
      '1:truncate:big.log',
    ]);
    expect(paths('dd if=/dev/zero of=disk.img bs=1')).toEqual(['0:dd:disk.img']);
  });
  it('reads what a shell-write reader is easily fooled by', () => {
    // A redirection glued to its word is one; a quoted `>` is an argument.
    expect(paths('echo x>src/a.js')).toEqual(['0:>:src/a.js']);
    expect(paths("echo '>' notes.txt")).toEqual([]);
    // A here-document's program and its redirection, in either order.
    expect(paths("cat <<'EOF' > src/a.js\nx\nEOF")).toEqual(['0:>:src/a.js']);
    // A script given to a shell, past env; eval.
    expect(paths("env CI=1 bash -c 'echo x > src/a.js'")).toEqual(['0:>:src/a.js']);
    expect(paths('eval "printf x > src/b.js"')).toEqual(['0:>:src/b.js']);
    // Inline programs, given with -c/-e or in a here-document; a read is no write.
    expect(paths(`python3 -c "open('src/a.py', 'w').write('x')"`)).toEqual([
      '0:python3 code:src/a.py',
    ]);
    expect(paths(`node -e "require('fs').writeFileSync('src/a.js', 'x')"`)).toEqual([
      '0:node code:src/a.js',
    ]);
    expect(
      paths("python3 - <<'PY'\nfrom pathlib import Path\nPath('src/b.py').write_text('x')\nPY"),
    ).toEqual(['0:python3 code:src/b.py']);
    expect(paths(`python3 -c 'print(open("src/a.py").read())'`)).toEqual([]);
    // A patch in a here-document writes its +++ paths.
    expect(
      paths("git apply <<'EOF'\n--- a/src/a.js\n+++ b/src/a.js\n@@ -0,0 +1 @@\n+x\nEOF"),
    ).toEqual(['0:git apply:src/a.js']);
    // install, and a copy onto a directory writes the source's name in it.
    expect(paths('install -m 644 /tmp/a.js src/a.js')).toEqual(['0:install:src/a.js']);
    expect(paths('cp /tmp/a.js src/')).toEqual(['0:cp:src/a.js']);
    expect(paths('mv /tmp/a.js src')).toEqual(['0:mv:src', '0:mv:src/a.js']);
    // A cd and back, normalised; an inline program after a cd writes where the cd went.
    expect(paths('cd src; cd ..; echo x > a.js')).toEqual(['2:>:a.js']);
    expect(paths(`cd src && python3 -c "open('a.py','w')"`)).toEqual(['1:python3 code:src/a.py']);
  });
  it('writes no file to /dev or a file descriptor, and reads nothing as a write', () => {
    expect(paths('npm test > /dev/null 2>&1')).toEqual([]);
    expect(paths('cat src/a.js; grep -n x src; ls > /dev/stderr')).toEqual([]);
    expect(paths("sed 's/a/b/' src/x.js")).toEqual([]);
  });
  it('takes a here-document as data, and its program redirection as the write', () => {
    const command =
      "cat > test/add.test.js <<'EOF'\nimport x from 'y';\ncp a b > c\nEOF\ncat > src/add.js <<EOF\nexport {};\nEOF";
    expect(withoutHeredocBodies(command)).toBe(
      "cat > test/add.test.js <<'EOF'\ncat > src/add.js <<EOF",
    );
    expect(paths(command)).toEqual(['0:>:test/add.test.js', '1:>:src/add.js']);
  });
  it('resolves relative paths against a cd of the same command', () => {
    expect(paths('cd /work/repo && echo x > src/a.js')).toEqual(['1:>:/work/repo/src/a.js']);
    expect(repositoryPath('/work/repo/src/a.js', '/work/repo')).toBe('src/a.js');
    expect(repositoryPath('./src/a.js', '/work/repo')).toBe('src/a.js');
    expect(repositoryPath('/elsewhere/a.js', '/work/repo')).toBe('/elsewhere/a.js');
  });
});

describe('skill invocations', () => {
  it('records the form: the Skill tool, a Read of SKILL.md, a shell read of one', () => {
    const found = skillInvocations([
      { id: 'a', name: 'Skill', input: { skill: 'superpowers:brainstorming' } },
      { id: 'b', name: 'Read', input: { file_path: '/x/skills/tdd/SKILL.md' } },
      { id: 'c', name: 'Bash', input: { command: 'ls; head -n 5 /x/skills/plans/SKILL.md' } },
      { id: 'd', name: 'Read', input: { file_path: '/x/skills/tdd/notes.md' } },
      { id: 'e', name: 'Bash', input: { command: 'echo skills/tdd/SKILL.md' } },
      // Looking at the file reads none of its words.
      {
        id: 'f',
        name: 'Bash',
        input: { command: 'ls /x/skills/tdd/SKILL.md && test -f /x/skills/tdd/SKILL.md' },
      },
      {
        id: 'g',
        name: 'Bash',
        input: { command: 'wc -l /x/skills/tdd/SKILL.md; sha256sum /x/skills/tdd/SKILL.md' },
      },
    ]);
    expect(found.map((i) => [i.name, i.plugin, i.bare, i.form, i.part])).toEqual([
      ['superpowers:brainstorming', 'superpowers', 'brainstorming', 'tool', 0],
      ['tdd', null, 'tdd', 'read', 0],
      ['plans', null, 'plans', 'shell', 1],
    ]);
  });
  it('matches bare and qualified names either way, never two different plugins', () => {
    expect(sameSkill('superpowers:tdd', 'tdd')).toBe(true);
    expect(sameSkill('tdd', 'superpowers:tdd')).toBe(true);
    expect(sameSkill('other:tdd', 'superpowers:tdd')).toBe(false);
    expect(sameSkill('tdd-extra', 'tdd')).toBe(false);
  });
});

describe('the event list', () => {
  it('places writes, skills and a reply question by call and part', () => {
    const events = sessionEvents({
      calls: [
        { id: 'a', name: 'Skill', input: { skill: 'lib:tdd' } },
        {
          id: 'b',
          name: 'Bash',
          input: { command: 'cd /r && echo t > test/a.test.js && echo i > src/a.js' },
        },
      ],
      dispatches: [],
      model: null,
      repoDir: '/r',
      questions: [
        {
          id: 'q-1',
          via: 'reply',
          text: 'ok?',
          seat: 'controller',
          toolUseId: null,
          afterCall: 'a',
          answer: 'yes',
          source: 'default',
          rule: null,
        },
      ],
    });
    expect(
      events.map(
        (event) =>
          `${event.kind}@${event.at[0]}.${event.at[1] > 99 ? 'end' : event.at[1]}${event.kind === 'write' ? `:${event.path}` : ''}`,
      ),
    ).toEqual([
      'tool@0.0',
      'skill@0.0',
      'question@0.end',
      'answer@0.end',
      'tool@1.0',
      'tool@1.1',
      'write@1.1:test/a.test.js',
      'tool@1.2',
      'write@1.2:src/a.js',
    ]);
  });
});
