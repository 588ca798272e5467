/** The row budgets (plugins/budgets.ts) as the host side offers them to embedders: their stores enforce the per-tenant and per-member caps. */
export { ROW_BUDGETS } from '../plugins/budgets.js';
export type { RowBudget, StoreCap, AtCap } from '../plugins/budgets.js';
