/**
 * Errors in the Anthropic API's shape: `{type: 'error', error: {type, message}}`
 * with the HTTP status the API uses for each type, so the real SDK surfaces
 * them as its typed APIError subclasses (BadRequestError, NotFoundError, ...).
 */

export const apiErrorStatus = {
  invalid_request_error: 400,
  authentication_error: 401,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
} as const;

export type ApiErrorType = keyof typeof apiErrorStatus;

export interface ApiErrorBody {
  readonly type: 'error';
  readonly error: { readonly type: ApiErrorType; readonly message: string };
}

export interface ApiError {
  readonly status: number;
  readonly body: ApiErrorBody;
}

export function apiError(type: ApiErrorType, message: string): ApiError {
  return { status: apiErrorStatus[type], body: { type: 'error', error: { type, message } } };
}
