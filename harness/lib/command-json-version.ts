/** The `schemaVersion` of every command's `--json` output (report/command-json.ts holds their schemas). */
export const COMMAND_JSON_VERSION = 1;
