/** Exit codes that scripts can rely on. */
export const EXIT_CODES = {
  ok: 0,
  /** Anything went wrong that is not the caller's input: backend down, partial import... */
  failure: 1,
  /** The command line (or an input value) is wrong; running it again unchanged will fail again. */
  usage: 2,
  /** The named entry does not exist. */
  notFound: 3,
  /** Stopped by SIGINT or SIGTERM after a clean stop (128 + SIGINT's number, by convention). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
