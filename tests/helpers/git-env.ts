import { isolatedGitEnv } from '../../harness/lib/git-env.js';

/**
 * The environment a test runs git in when it builds a repository of its
 * own: redgreen's isolated git environment (nothing of the host's git setup)
 * with a fixed identity, so its commits need no user config.
 */
export function testGitEnv(home: string): Record<string, string> {
  return {
    ...isolatedGitEnv(home),
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };
}
