import { useEffect, useRef } from 'preact/hooks';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { AdminKiosk } from '../types';

/** A kiosk's state on the map, most urgent first. */
const STATES = [
  { name: 'Open alert', color: '#b3261e', applies: (kiosk: AdminKiosk) => kiosk.openAlerts.length > 0 },
  { name: 'Offline', color: '#5f6368', applies: (kiosk: AdminKiosk) => !kiosk.online },
  { name: 'Online', color: '#1e7b34', applies: () => true },
];
const stateOf = (kiosk: AdminKiosk) => STATES.find((state) => state.applies(kiosk))!;

const TILE_URL = import.meta.env.VITE_MAP_TILE_URL as string | undefined;
const TILE_ATTRIBUTION = import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined;

/**
 * The kiosks on a Leaflet map: circle markers drawn from their coordinates, so the map
 * needs no network; tiles only where VITE_MAP_TILE_URL names a tile server.
 */
export function KioskMap({ kiosks }: { kiosks: AdminKiosk[] }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current) return;
    const map = L.map(container.current, { scrollWheelZoom: false });
    if (TILE_URL) L.tileLayer(TILE_URL, { attribution: TILE_ATTRIBUTION ?? '', maxZoom: 19 }).addTo(map);
    const points: L.LatLngTuple[] = [];
    for (const kiosk of kiosks) {
      const point: L.LatLngTuple = [kiosk.location.latitude, kiosk.location.longitude];
      points.push(point);
      const state = stateOf(kiosk);
      L.circleMarker(point, { radius: 8, color: '#fff', weight: 2, fillColor: state.color, fillOpacity: 0.95 })
        .bindTooltip(textElement('span', `${kiosk.name} (${state.name})`))
        .bindPopup(popup(kiosk, state.name))
        .addTo(map);
    }
    if (points.length > 0) map.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 14 });
    else map.setView([0, 0], 1);
    return () => map.remove();
  }, [kiosks]);
  return (
    <section class="map" aria-label="Map of kiosks">
      <div ref={container} class="map-canvas" />
      <ul class="legend">
        {STATES.map((state) => (
          <li key={state.name}>
            <span class="swatch round" style={{ background: state.color }} aria-hidden="true" />
            {state.name}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * An element holding `text` as text. Leaflet parses a string it is given as HTML, so tooltips and popups are
 * given elements: a kiosk's name or id is never markup (contract, part four).
 */
function textElement<K extends keyof HTMLElementTagNameMap>(tag: K, text: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}

/** The popup's content, built as elements. */
function popup(kiosk: AdminKiosk, state: string): HTMLElement {
  const content = document.createElement('div');
  const link = textElement('a', `Open kiosk ${kiosk.id}`);
  link.href = `/kiosks/${encodeURIComponent(kiosk.id)}`;
  content.append(
    textElement('strong', kiosk.name),
    textElement('p', `${state}${kiosk.openAlerts.length ? `: ${kiosk.openAlerts.join(', ')}` : ''}`),
    link,
  );
  return content;
}
