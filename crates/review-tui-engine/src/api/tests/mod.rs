mod contract;
mod generics;
mod languages;
mod releases;
mod surface;
