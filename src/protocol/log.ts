/** A line of a render's log: what plugins and templates write, what the embedder gets in RenderResult.logs. */
export type LogLevel = 'info' | 'warning' | 'error';

export interface LogLine {
  level: LogLevel;
  message: string;
}

export const LOG_LEVELS: readonly LogLevel[] = ['info', 'warning', 'error'];
