// A report's grouping, apart from the reports' definitions: the /admin/reports route checks its address
// with it, and a route's search check is in the app's main bundle, which every member downloads.

export const REPORT_GROUPS = ['day', 'month'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];
