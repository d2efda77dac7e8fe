mod contract;
mod deleted;
mod generics;
mod go_reach;
mod languages;
mod releases;
mod script_members;
mod surface;
