/**
 * The model id an API reported back, as recorded in a rep's meta.json.
 * Claude Code labels the messages it makes up itself (an API error shown as
 * the assistant's reply, when the endpoint answered with an error or never
 * answered) with the model `<synthetic>`: that is the engine's placeholder,
 * not an API's answer, so it counts as no report.
 */
export const ENGINE_PLACEHOLDER_MODEL = '<synthetic>';

/** The id as reported by the API, or null when what was given is no API's report. */
export function apiReportedModel(id: string | null | undefined): string | null {
  if (id === undefined || id === null || id === '' || id === ENGINE_PLACEHOLDER_MODEL) return null;
  return id;
}
