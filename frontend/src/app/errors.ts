// How the page words an error: one place, so the panels and the app agree.

import { EngineError } from "../client";

/** A readable message of any error; engine errors keep their file and line. */
export function errorText(e: unknown): string {
  if (e instanceof EngineError) {
    if (e.code === "bad_input" && e.file && !e.message.includes(e.file)) {
      return `${e.file}${e.line ? `, line ${e.line}` : ""}: ${e.message}`;
    }
    return e.message;
  }
  return e instanceof Error ? e.message : String(e);
}
