mod contract;
mod languages;
mod releases;
mod surface;
