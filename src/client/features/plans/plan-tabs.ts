// The admin plans screen's tabs. Its own file: the route validates its address with these names, and
// route validation is in the main bundle, so importing them from the screen would send the whole admin
// screen to every visitor.
export const PLAN_TABS = ['plans', 'activation', 'levels', 'codes'] as const;
export type PlanTab = (typeof PLAN_TABS)[number];
