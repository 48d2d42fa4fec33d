/**
 * The environment redgreen runs git in: nothing from the caller's git setup
 * (no GIT_* variables, no global or system config, no hooks path, no
 * templates), a fixed locale and time zone. Any git process redgreen starts
 * for its own bookkeeping uses this, so results never depend on the host.
 */
export function isolatedGitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: 'C',
    LC_ALL: 'C',
    TZ: 'UTC',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
  };
}
