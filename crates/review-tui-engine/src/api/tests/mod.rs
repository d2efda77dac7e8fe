mod contract;
mod deleted;
mod generics;
mod languages;
mod prerelease;
mod releases;
mod surface;
