/**
 * The environment a test runs git in when it builds a repository of its
 * own: the caller's PATH, a HOME of the test's, no global or system config
 * and a fixed identity, so nothing of the host's git setup reaches it.
 */
export function testGitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };
}
