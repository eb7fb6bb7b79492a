// leaflet.markercluster as a react-leaflet container: <Marker> children join the cluster group.
import L from 'leaflet';
import 'leaflet.markercluster';
import type { ReactNode } from 'react';
import { createElementObject, createPathComponent, extendContext } from '@react-leaflet/core';

export interface MarkerClusterGroupProps extends L.MarkerClusterGroupOptions {
  children?: ReactNode;
}

export const MarkerClusterGroup = createPathComponent<L.MarkerClusterGroup, MarkerClusterGroupProps>(
  ({ children: _children, ...options }, context) => {
    const group = L.markerClusterGroup(options);
    return createElementObject(group, extendContext(context, { layerContainer: group }));
  },
);
