/**
 * An error the sandbox answers as `{"error": {"status": <n>, "message": "<text>"}}`.
 * Messages name the cause and never contain the API key.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export function errorBody(status: number, message: string): string {
  return JSON.stringify({ error: { status, message } });
}
