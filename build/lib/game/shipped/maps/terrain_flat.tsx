<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="terrain_flat" tilewidth="74" tileheight="64" tilecount="34" columns="8">
 <image source="tiles/terrain_flat.png" width="592" height="320"/>
 <tile id="0">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="grass"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="grass"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="grass"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="dirt"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="road"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="1"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="rough"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="-1"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="1"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="rocky"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="2"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="sand"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="-1"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="2"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="mud"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="-1"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="1"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="shallows"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="-2"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="3"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="stream"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="deep_water"/>
  </properties>
 </tile>
 <tile id="12">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="-3"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="4"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="ice"/>
  </properties>
 </tile>
 <tile id="13">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="bridge"/>
  </properties>
 </tile>
 <tile id="14">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="floor"/>
  </properties>
 </tile>
 <tile id="15">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="flagstones"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="2"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="hill"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="4"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="hill"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="6"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="hill"/>
  </properties>
 </tile>
 <tile id="19">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="8"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="hill"/>
  </properties>
 </tile>
 <tile id="20">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="-1"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="1"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="trees"/>
  </properties>
 </tile>
 <tile id="21">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="-1"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="1"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="trees"/>
  </properties>
 </tile>
 <tile id="22">
  <properties>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="int" value="-2"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="-1"/>
   <property name="move_penalty" type="int" value="2"/>
   <property name="move_penalty_fly" type="int" value="1"/>
   <property name="terrain" propertytype="Terrain" value="dense_woods"/>
  </properties>
 </tile>
 <tile id="23">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="-1"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="1"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="brush"/>
  </properties>
 </tile>
 <tile id="24">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="-1"/>
   <property name="footing" type="int" value="-1"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="2"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="boulders"/>
  </properties>
 </tile>
 <tile id="25">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="-1"/>
   <property name="footing" type="int" value="-1"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="1"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="rubble"/>
  </properties>
 </tile>
 <tile id="26">
  <properties>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="impassable_fly" type="bool" value="true"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="wall"/>
  </properties>
 </tile>
 <tile id="27">
  <properties>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="impassable_fly" type="bool" value="true"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="wall"/>
  </properties>
 </tile>
 <tile id="28">
  <properties>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="door"/>
  </properties>
 </tile>
 <tile id="29">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="-1"/>
   <property name="footing" type="int" value="-1"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="2"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="broken_wall"/>
  </properties>
 </tile>
 <tile id="30">
  <properties>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="impassable_fly" type="bool" value="true"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="building"/>
  </properties>
 </tile>
 <tile id="31">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="elevation" type="int" value="8"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="flagstones"/>
  </properties>
 </tile>
 <tile id="32">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="footing" type="int" value="0"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="0"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="road"/>
  </properties>
 </tile>
 <tile id="33">
  <properties>
   <property name="blocks_sight" type="bool" value="false"/>
   <property name="cover" type="int" value="0"/>
   <property name="footing" type="int" value="-1"/>
   <property name="impassable" type="bool" value="false"/>
   <property name="impassable_fly" type="bool" value="false"/>
   <property name="light" type="int" value="0"/>
   <property name="move_penalty" type="int" value="1"/>
   <property name="move_penalty_fly" type="int" value="0"/>
   <property name="terrain" propertytype="Terrain" value="rocky"/>
  </properties>
 </tile>
</tileset>
