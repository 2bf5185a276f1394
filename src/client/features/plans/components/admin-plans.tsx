import '../plans.css';
import { RiskNote } from '../../../ui/risk-note.tsx';
import { Tabs } from '../../../ui/tabs.tsx';
import { PLAN_TABS, type PlanTab } from '../plan-tabs.ts';
import { ActivationCodes } from './activation-codes.tsx';
import { LevelPercents } from './level-percents.tsx';
import { PlansSection } from './plans-section.tsx';

const TAB_LABELS: Record<PlanTab, string> = {
  plans: 'Plans',
  activation: 'Activation plans',
  levels: 'Level percents',
  codes: 'Activation codes',
};

/** The admin's plans screen: one tab per part; the tab and the codes' page live in the address. */
export function AdminPlans({
  tab,
  page,
  onNavigate,
}: {
  tab: PlanTab;
  page: number;
  onNavigate: (next: { tab: PlanTab; page?: number }) => void;
}) {
  return (
    <div className="stack admin-plans">
      <Tabs
        label="Plans screen"
        tabs={PLAN_TABS.map((key) => ({ key, label: TAB_LABELS[key] }))}
        active={tab}
        onChange={(next) => onNavigate({ tab: next })}
      >
        {tab === 'plans' ? (
          <PlansSection key="plan" kind="plan" />
        ) : tab === 'activation' ? (
          <PlansSection key="activation" kind="activation" />
        ) : tab === 'levels' ? (
          <LevelPercents />
        ) : (
          <ActivationCodes page={page} onPage={(next) => onNavigate({ tab: 'codes', page: next })} />
        )}
      </Tabs>
      <RiskNote className="compact" />
    </div>
  );
}
