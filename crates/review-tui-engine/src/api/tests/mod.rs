mod contract;
mod deleted;
mod generics;
mod languages;
mod releases;
mod surface;
