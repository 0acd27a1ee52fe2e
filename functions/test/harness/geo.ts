// Placing kiosks at a known distance and bearing from a point, on the sphere
// geofire-common's distanceBetween measures on (radius 6371 km): for the nearby
// tests, which need kiosks just inside and just outside a radius, across the
// antimeridian and around the poles, and for the bench's neighbourhood.

const EARTH_RADIUS_KM = 6371;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
const toDegrees = (radians: number) => (radians * 180) / Math.PI;

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** The point `km` from `from` along the great circle leaving it at `bearing` degrees (0 north, 90 east). */
export function pointAt(from: LatLng, km: number, bearing: number): LatLng {
  const angle = km / EARTH_RADIUS_KM;
  const heading = toRadians(bearing);
  const lat = toRadians(from.latitude);
  const latitude = Math.asin(Math.sin(lat) * Math.cos(angle) + Math.cos(lat) * Math.sin(angle) * Math.cos(heading));
  const longitude =
    toRadians(from.longitude) +
    Math.atan2(
      Math.sin(heading) * Math.sin(angle) * Math.cos(lat),
      Math.cos(angle) - Math.sin(lat) * Math.sin(latitude),
    );
  // Back into [-180, 180), and clamped against rounding at the poles.
  const wrapped = ((((toDegrees(longitude) + 180) % 360) + 360) % 360) - 180;
  return { latitude: Math.max(-90, Math.min(90, toDegrees(latitude))), longitude: wrapped };
}
