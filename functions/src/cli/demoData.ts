/** What `seed` puts on the local stack: demo kiosks, demo accounts and a rewards catalog. */
import type { RewardDefinition } from '../domain/redemption';
import type { KioskInput } from './commands/kiosks';
import type { PromotionBody } from '../model/promotionViews';

export const DEMO_PASSWORD = 'password123';
/** The label of the demo kiosk API key; seed revokes earlier keys with this label. */
export const DEMO_KEY_LABEL = 'demo';

/** The first holds the demo API key. */
export const DEMO_KIOSKS: readonly KioskInput[] = [
  {
    id: 'berlin-alexanderplatz',
    name: 'Berlin Alexanderplatz',
    address: 'Alexanderplatz 1, 10178 Berlin, Germany',
    location: { latitude: 52.521918, longitude: 13.413215 },
    openingHours: '24/7',
    timezone: 'Europe/Berlin',
    status: 'available',
  },
  {
    id: 'munich-marienplatz',
    name: 'München Marienplatz',
    address: 'Marienplatz 8, 80331 München, Germany',
    location: { latitude: 48.137154, longitude: 11.575382 },
    openingHours: 'Mo-Sa 07:00-22:00',
    timezone: 'Europe/Berlin',
    status: 'available',
  },
  {
    id: 'amsterdam-centraal',
    name: 'Amsterdam Centraal',
    address: 'Stationsplein 1, 1012 AB Amsterdam, Netherlands',
    location: { latitude: 52.378901, longitude: 4.900581 },
    openingHours: 'Mo-Fr 06:00-23:00; Sa,Su 08:00-22:00',
    timezone: 'Europe/Amsterdam',
    status: 'available',
  },
  {
    id: 'wien-westbahnhof',
    name: 'Wien Westbahnhof',
    address: 'Europaplatz 2, 1150 Wien, Austria',
    location: { latitude: 48.196641, longitude: 16.337954 },
    openingHours: 'Mo-Sa 06:00-22:00; Su 08:00-20:00',
    timezone: 'Europe/Vienna',
    status: 'maintenance',
  },
];

export interface DemoAccount {
  uid: string;
  email: string;
  displayName: string;
  admin: boolean;
  points: number;
  recycledCount: number;
  pushToken?: string;
}

/** The first is the user of the ready-to-paste examples; an admin is the one sending pushes. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    uid: 'demo-alice',
    email: 'alice@example.com',
    displayName: 'Alice Demo',
    admin: false,
    points: 1250,
    recycledCount: 60,
    pushToken: 'demo-device-alice',
  },
  { uid: 'demo-bob', email: 'bob@example.com', displayName: 'Bob Demo', admin: false, points: 0, recycledCount: 0 },
  {
    uid: 'demo-admin',
    email: 'admin@example.com',
    displayName: 'Admin Demo',
    admin: true,
    points: 0,
    recycledCount: 0,
  },
];

/** Something for each kind: a voucher with a small stock, one without a limit, and a donation. */
export const DEMO_REWARDS: readonly RewardDefinition[] = [
  {
    id: 'coffee-voucher',
    name: 'Coffee at Café Kreislauf',
    description: 'One hot drink of any size at a partner café; show the code at the till.',
    cost: 300,
    kind: 'voucher',
    stock: 25,
  },
  {
    id: 'cinema-ticket',
    name: 'Cinema ticket',
    description: 'One ticket for any regular screening at a partner cinema.',
    cost: 1000,
    kind: 'voucher',
    stock: null,
  },
  {
    id: 'plant-a-tree',
    name: 'Plant a tree',
    description: 'A tree planted by our reforestation partner, in your name.',
    cost: 200,
    kind: 'donation',
    stock: null,
  },
];

/** What the demo campaign ("Double points this weekend") announces: docs/promotions.md's example. */
export const DEMO_PROMOTIONS: readonly PromotionBody[] = [
  {
    id: 'weekend-double',
    name: 'Double points this weekend',
    multiplier: 2,
    hours: 'Sa,Su 00:00-24:00',
    kioskIds: ['berlin-alexanderplatz', 'munich-marienplatz'],
    budgetPoints: 200_000,
  },
];
