mod contract;
mod generics;
mod languages;
mod prerelease;
mod releases;
mod surface;
