import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';

/** 'Factor Peso' and, beside it, 'Tarifas' (issue 34): two screens under one tab bar. */
export function PricingTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const value = pathname.startsWith('/factor-peso/tarifas') ? '/factor-peso/tarifas' : '/factor-peso';
  return (
    <Tabs value={value} onChange={(v) => v && void navigate(v)} mb="sm" keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="/factor-peso">Factor Peso</Tabs.Tab>
        <Tabs.Tab value="/factor-peso/tarifas">Tarifas</Tabs.Tab>
      </Tabs.List>
    </Tabs>
  );
}
