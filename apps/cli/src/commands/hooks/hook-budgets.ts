/**
 * Budgets, from process start to the last byte printed. A prompt waits for its hook, so 1.5 s;
 * saving at Stop may call the chat model (`remember`), so longer. MEMORY_HOOK_BUDGET_MS or
 * --budget-ms override them; the settings that `memory hooks install` writes give the host a
 * timeout above the budget, so it never kills a hook that is about to answer.
 */
export const HOOK_BUDGETS_MS = {
  prompt: 1_500,
  "session-start": 1_500,
  stop: 10_000,
  "codex-notify": 10_000,
} as const;
export type HookEvent = keyof typeof HOOK_BUDGETS_MS;
export const HOOK_EVENTS = Object.keys(HOOK_BUDGETS_MS) as HookEvent[];
